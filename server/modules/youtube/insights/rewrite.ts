// Optional friendlier wording of computed insights by an OpenAI-compatible model (POST {base}/chat/completions).
// The statistics stay the source: the model only sees each insight's type, title, computed text and facts (no user,
// channel or token data), a reply that drops or changes any number of the computed text is ignored, and any failure
// or timeout keeps the computed text.
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
  'Keep every number exactly as written, keep the meaning, add no new claims or numbers, at most three sentences each. ' +
  'Answer only with JSON: {"recommendations": ["...", ...]}, one entry per input insight, in the same order.';

/** The numbers a text cites ("18,400", "2.1", "34"), which a rewrite must keep. */
export function citedNumbers(text: string): string[] {
  return (text.match(/\d[\d,]*(\.\d+)?/g) ?? []).map((token) => token.replace(/,/g, ''));
}

export function keepsNumbers(original: string, candidate: string): boolean {
  const available = citedNumbers(candidate);
  return citedNumbers(original).every((number) => {
    const index = available.indexOf(number);
    if (index === -1) return false;
    available.splice(index, 1);
    return true;
  });
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
        const acceptable = text.length >= 20 && text.length <= 800 && keepsNumbers(insight.recommendation, text);
        return acceptable ? { ...insight, recommendation: text } : insight;
      });
    } catch (error) {
      // The error's name only: a message could quote the URL or the response.
      logger.warn({ error: (error as Error).name }, 'insight rewriting failed; keeping the computed texts');
      return insights;
    }
  };
}
