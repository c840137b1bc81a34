import type { UseQueryResult } from '@tanstack/react-query';
import { formatEvidenceLine, type InsightEvidence, NOT_ENOUGH_EVIDENCE } from '#contract/insight-evidence.ts';
import { INSIGHTS_SHOWN, type Insight } from '#contract/youtube.ts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { HowCalculated } from '../../../components/ui/how-calculated';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { PanelLoading } from './panel-loading';
import { confidenceTone, formatConfidence, insightTypeLabel } from '../utils/youtube-format';

interface InsightsPanelProps {
  insights: UseQueryResult<Insight[]>;
  onGenerate: () => void;
  generating: boolean;
  /** Generate Insights ran in this visit (its answer is in `insights`). */
  generated?: boolean;
}

/** The numbers an insight rests on: groups, n, effect and 95 % interval, then the method in small print. */
function EvidenceLine({ evidence }: { evidence: InsightEvidence }) {
  return (
    <div className="rounded-md border border-slate-800 bg-slate-900/60 px-3 py-2 text-xs text-slate-300">
      <p className="break-words">
        <span className="font-semibold text-slate-200">Evidence: </span>
        {formatEvidenceLine(evidence)}
      </p>
      <HowCalculated className="mt-1">
        <p>{evidence.method}</p>
      </HowCalculated>
    </div>
  );
}

/**
 * 'AI-Powered Insights': the first 4, each with its type, recommendation, the evidence it rests on and a confidence
 * badge; an insight without enough evidence is never stored, so an empty list says "not enough evidence yet".
 */
export function InsightsPanel({ insights, onGenerate, generating, generated = false }: InsightsPanelProps) {
  const shown = (insights.data ?? []).slice(0, INSIGHTS_SHOWN);
  let body;
  if (insights.isPending) {
    body = <PanelLoading label="Loading insights..." skeletonClassName="h-28 w-full" />;
  } else if (insights.isError) {
    body = <p className="text-sm text-amber-200">Couldn't load your insights. Reload the page to try again.</p>;
  } else if (shown.length === 0) {
    body = (
      <EmptyState
        title={NOT_ENOUGH_EVIDENCE}
        description={
          generated
            ? 'No comparison on your channel cleared the bar yet: a finding is shown only when its 95 % interval excludes "no difference" and each group it compares has at least 5 videos. More videos and days of history will sharpen the numbers.'
            : "Generate Insights compares your videos' timing, length, click-through, retention and traffic, and shows a finding only when your numbers support it: a 95 % interval that excludes \"no difference\", with at least 5 videos in each group."
        }
        actions={
          <Button onClick={onGenerate} disabled={generating} aria-busy={generating}>
            {generating ? <Spinner /> : null}
            {generating ? 'Generating...' : 'Generate Insights'}
          </Button>
        }
      />
    );
  } else {
    body = (
      <ul className="grid gap-3 md:grid-cols-2">
        {shown.map((insight) => (
          <li key={insight.id} className="flex flex-col gap-2 rounded-lg border border-slate-800 bg-slate-950/60 p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="text-xs font-semibold tracking-wide text-indigo-300 uppercase">{insightTypeLabel(insight.insightType)}</p>
                <h3 className="mt-0.5 font-semibold break-words text-white">{insight.title}</h3>
              </div>
              <Badge tone={confidenceTone(insight.confidenceScore)} className="shrink-0">
                {formatConfidence(insight.confidenceScore)} confidence
              </Badge>
            </div>
            <p className="text-sm break-words text-slate-300">{insight.recommendation}</p>
            {insight.evidence ? <EvidenceLine evidence={insight.evidence} /> : null}
            <p className="mt-auto text-xs text-slate-400">Generated {formatDate(insight.createdAt)}</p>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <Card title="AI-Powered Insights">
      {body}
    </Card>
  );
}
