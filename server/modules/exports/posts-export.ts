// GET /api/content/export?format=csv: the Analytics screen's Posts table (decision 017), every post matching its
// platform filter, in its order, with the "vs your typical" sentence and each age's ratios. The posts come through
// the content service's own `allPosts`, so they are the signed-in user's, sorted exactly as the table sorts them.
//
// The rows are held in memory (a creator has hundreds to a few thousand posts, and the ratio orders need them all
// anyway); the text is streamed a slice at a time so the reply never holds the whole file.
import { BENCHMARK_AGES, type BenchmarkAgeResult } from '#contract/benchmark.ts';
import { CONTENT_CSV_COLUMNS, type ContentExportQuery, type ContentPost, typicalFigure, typicalSentence } from '#contract/content.ts';
import { platformDisplayName } from '#contract/platforms.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayOf } from '../../lib/dates.ts';
import type { ContentService } from '../content/content.service.ts';
import { CSV_BOM, csvLine, csvNumber, csvText } from './csv.ts';
import type { ExportFile } from './exports.service.ts';
import { textStream } from './text-stream.ts';

/** Posts per written chunk. */
const CSV_SLICE = 500;

const accountLabel = ({ account }: ContentPost) =>
  [account.name, account.username ? `@${account.username.replace(/^@/, '')}` : null].filter((part) => part).join(' ') || null;

const ratioAt = (ages: readonly BenchmarkAgeResult[], age: string, metric: 'views' | 'engagements') => ages.find((entry) => entry.age === age)?.[metric].ratio ?? null;

const csvPost = (post: ContentPost) => {
  const typical = typicalFigure(post.benchmarks);
  return csvLine([
    csvNumber(post.id),
    csvText(platformDisplayName(post.platform)),
    csvText(accountLabel(post)),
    csvText(post.title),
    csvText(post.url),
    csvText(post.publishedAt),
    csvNumber(post.views),
    csvNumber(post.engagements),
    csvText(typicalSentence(typical)),
    csvText(typical?.figure.status === 'ok' ? typical.metric : null),
    ...(['views', 'engagements'] as const).flatMap((metric) => BENCHMARK_AGES.map(({ age }) => csvNumber(ratioAt(post.benchmarks, age, metric)))),
  ]);
};

export function createPostsExport({ content, clock }: { content: ContentService; clock: Clock }) {
  async function* csvChunks(posts: ContentPost[]): AsyncGenerator<string> {
    yield CSV_BOM + csvLine(CONTENT_CSV_COLUMNS.map((column) => csvText(column)));
    for (let start = 0; start < posts.length; start += CSV_SLICE) yield posts.slice(start, start + CSV_SLICE).map(csvPost).join('');
  }

  async function postsExport(userId: number, query: ContentExportQuery): Promise<ExportFile> {
    const { format, ...filters } = query;
    const fileName = `${['analytics-hub-posts', filters.platform ?? '', dayOf(clock.now())].filter(Boolean).join('-')}.${format}`;
    // Read before anything is sent, so a failing query answers an error rather than a cut-off file.
    const posts = await content.allPosts(userId, filters);
    return { fileName, contentType: 'text/csv; charset=utf-8', body: textStream(csvChunks(posts)) };
  }

  return { postsExport };
}
