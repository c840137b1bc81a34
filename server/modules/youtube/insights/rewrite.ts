// Optional friendlier wording of computed insights by an OpenAI-compatible model (POST {base}/chat/completions).
// The statistics stay the source: the model only sees each insight's type, title, computed text and facts (no user,
// channel or token data). It may only reword: a reply whose numbers are not exactly the computed text's (none dropped,
// changed or added) or that loses one of the evidence's numbers (effect, interval, n) is ignored, and any failure or
// timeout keeps the computed text.
import { evidenceNumbers, type InsightEvidence } from '#contract/insight-evidence.ts';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ComputedInsight } from './engine.ts';

export interface InsightRewriterConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}

export type InsightRewriter = (insights: ComputedInsight[]) => Promise<ComputedInsight[]>;

const completion = z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullable() }) })).min(1),
});
const rewritten = z.looseObject({ recommendations: z.array(z.string()) });

const SYSTEM_PROMPT =
  'You rewrite analytics recommendations for a YouTube creator in friendly, plain, encouraging English. ' +
  'Keep every number exactly as written (including the 95 % CI and the n), keep the meaning, add no new claims or numbers, at most three sentences each. ' +
  'Answer only with JSON: {"recommendations": ["...", ...]}, one entry per input insight, in the same order.';

/** The numbers a text cites ("18,400", "2.1", "34"), which a rewrite must keep. */
export function citedNumbers(text: string): string[] {
  return (text.match(/\d[\d,]*(\.\d+)?/g) ?? []).map((token) => token.replace(/,/g, ''));
}

/** The candidate cites exactly the original's numbers: none dropped, changed or added (order may change). */
export function keepsNumbers(original: string, candidate: string): boolean {
  const sorted = (text: string) => citedNumbers(text).sort().join(' ');
  return sorted(original) === sorted(candidate);
}

/** Every number of the evidence (effect, interval bounds, each n) appears in the text as printed. */
export function citesEvidence(evidence: InsightEvidence, text: string): boolean {
  const available = citedNumbers(text);
  return evidenceNumbers(evidence).every((number) => {
    const index = available.indexOf(number);
    if (index === -1) return false;
    available.splice(index, 1);
    return true;
  });
}

/** Whether a rewording may replace the computed text. */
export function acceptableRewording(insight: ComputedInsight, text: string): boolean {
  return text.length >= 20 && text.length <= 800 && keepsNumbers(insight.recommendation, text) && citesEvidence(insight.evidence, text);
}

function parseContent(content: string): string[] | undefined {
  // Some models wrap JSON in a Markdown code fence.
  const unfenced = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return rewritten.parse(JSON.parse(unfenced)).recommendations;
  } catch {
    return undefined;
  }
}

export function createInsightRewriter(config: InsightRewriterConfig, { logger, fetchImpl = fetch }: { logger: FastifyBaseLogger; fetchImpl?: typeof fetch }): InsightRewriter {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async function rewriteInsights(insights) {
    if (insights.length === 0) return insights;
    const payload = insights.map((insight) => ({ insightType: insight.insightType, title: insight.title, recommendation: insight.recommendation, facts: insight.facts }));
    try {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
        body: JSON.stringify({
          model: config.model,
          temperature: 0,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: JSON.stringify({ insights: payload }) },
          ],
        }),
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      });
      if (!response.ok) {
        logger.warn({ status: response.status }, 'insight rewriting failed; keeping the computed texts');
        return insights;
      }
      const content = completion.parse(await response.json()).choices[0]!.message.content;
      const texts = content ? parseContent(content) : undefined;
      if (!texts || texts.length !== insights.length) {
        logger.warn('insight rewriting answered an unexpected shape; keeping the computed texts');
        return insights;
      }
      return insights.map((insight, index) => {
        const text = texts[index]!.trim();
        return acceptableRewording(insight, text) ? { ...insight, recommendation: text } : insight;
      });
    } catch (error) {
      // The error's name only: a message could quote the URL or the response.
      logger.warn({ error: (error as Error).name }, 'insight rewriting failed; keeping the computed texts');
      return insights;
    }
  };
}
