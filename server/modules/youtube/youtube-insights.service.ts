// The YouTube insights (the engine's rules over the channel's last months) and a video's viral potential against the
// channel's own videos, each read from what the sync stored.
import { insightEvidence } from '#contract/insight-evidence.ts';
import { type Insight, normalizeRetentionData, type ViralAnalysis } from '#contract/youtube.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { generateInsights as runInsightRules, type InsightInput, type InsightVideo } from './insights/engine.ts';
import type { InsightRewriter } from './insights/rewrite.ts';
import { topDecileChance } from './insights/top-decile-chance.ts';
import { analyzeViralPotential } from './insights/viral-potential.ts';
import type { RequireVideo } from './video-lookup.ts';
import { EVIDENCE_KEY, type YoutubeRepository } from './youtube.repository.ts';

const INSIGHT_HISTORY_DAYS = 120;

const toNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function parseEarlyViews(value: unknown): number[] | null {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  if (!Array.isArray(parsed)) return null;
  const numbers = parsed.map(Number);
  return numbers.every(Number.isFinite) ? numbers : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The channel's videos as the insight rules and the viral potential read them. */
export async function insightVideosOf(repository: Pick<YoutubeRepository, 'insightVideos'>, connectionId: number): Promise<InsightVideo[]> {
  const rows = await repository.insightVideos(connectionId);
  return rows.map((row) => ({
    videoId: row.video_id,
    title: row.title,
    publishedAt: row.published_at,
    durationSeconds: toNumber(row.duration_seconds),
    views: row.views,
    likes: row.likes,
    comments: row.comments,
    clickThroughRate: row.click_through_rate,
    averageViewPercentage: row.average_view_percentage,
    earlyViews: parseEarlyViews(row.early_views),
    retention: normalizeRetentionData(row.retention),
  }));
}

/** A stored facts column split into the flat facts and the evidence (absent on insights stored before decision 025). */
function splitFacts(stored: Record<string, unknown>): Pick<Insight, 'facts' | 'evidence'> {
  const facts: Insight['facts'] = {};
  for (const [key, value] of Object.entries(stored)) {
    if (key !== EVIDENCE_KEY && (typeof value === 'number' || typeof value === 'string')) facts[key] = value;
  }
  const evidence = insightEvidence.safeParse(stored[EVIDENCE_KEY]);
  return evidence.success ? { facts, evidence: evidence.data } : { facts };
}

export interface YoutubeInsightsDeps {
  repository: YoutubeRepository;
  clock: Clock;
  rewrite?: InsightRewriter;
  requireVideo: RequireVideo;
}

export function createYoutubeInsightsService({ repository, clock, rewrite, requireVideo }: YoutubeInsightsDeps) {
  const toInsight = (row: Awaited<ReturnType<YoutubeRepository['latestInsights']>>[number]): Insight => ({
    id: Number(row.id),
    insightType: row.insight_type,
    title: row.title,
    recommendation: row.recommendation,
    confidenceScore: Number(row.confidence_score),
    ...splitFacts(row.facts),
    videoId: row.video_id,
    createdAt: new Date(row.created_at).toISOString(),
  });

  async function insights(userId: number): Promise<Insight[]> {
    const channel = await repository.activeChannel(userId);
    if (!channel) return [];
    return (await repository.latestInsights(channel.connectionId)).map(toInsight);
  }

  const channelVideosForInsights = (connectionId: number) => insightVideosOf(repository, connectionId);

  async function generateInsights(userId: number): Promise<Insight[]> {
    const channel = await repository.activeChannel(userId);
    if (!channel) return [];
    const now = clock.now();
    const since = addDays(dayOf(now), -INSIGHT_HISTORY_DAYS);
    const [videoRows, channelTraffic, daily] = await Promise.all([
      channelVideosForInsights(channel.connectionId),
      repository.channelTraffic(channel.connectionId, since),
      repository.dailyViewsAndRevenue(channel.connectionId, since),
    ]);
    const input: InsightInput = {
      now,
      revenueAccess: channel.revenueAccess,
      videos: videoRows,
      channelTraffic: channelTraffic.map((row) => ({ ...row, views: Number(row.views) })),
      daily: daily.map((row) => ({ date: row.date, views: toNumber(row.views), revenue: toNumber(row.revenue) })),
    };
    let computed = runInsightRules(input);
    if (rewrite) computed = await rewrite(computed);
    await repository.replaceInsights(channel.connectionId, computed, now);
    return (await repository.latestInsights(channel.connectionId)).map(toInsight);
  }

  async function viralPotential(userId: number, id: string): Promise<ViralAnalysis> {
    const { channel, row } = await requireVideo(userId, id);
    const channelVideos = await channelVideosForInsights(channel.connectionId);
    const target = channelVideos.find((candidate) => candidate.videoId === row.video_id);
    const analysis = target ? analyzeViralPotential(target, channelVideos, clock.now()) : null;
    if (!analysis) {
      throw new AppError('unprocessable', 'Not enough data to score this video yet: the channel needs at least 3 other videos with statistics to compare with.');
    }
    return { videoId: row.video_id, title: row.title, ...analysis };
  }

  return { insights, generateInsights, viralPotential };
}
