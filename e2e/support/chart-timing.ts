// In-page timings of chart redraws, measured by the browser's own clock: from the user's event (a click or a
// select's change, captured before the app sees it) to the moment a chart container's `data-chart-key` says the
// chart has drawn (set by Chart.js's afterDraw, see web/src/components/charts/chart-frame.tsx).
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __chartTiming?: Promise<number>;
  }
}

export type ChartCondition = 'firstChart' | 'allChartsRedrawn';

/**
 * Arms a timer in the page: it starts at the next `startEvent` and stops when `condition` holds —
 * 'firstChart': a chart with a drawn key is on the screen; 'allChartsRedrawn': every chart on the screen carries the
 * same drawn key, and not the one the charts had when the timer was armed.
 */
export async function armChartTimer(page: Page, startEvent: 'click' | 'change', condition: ChartCondition) {
  await page.evaluate(
    ({ startEvent, condition }) => {
      const charts = () => [...document.querySelectorAll('figure > [role="img"]')];
      const keysNow = () => charts().map((chart) => chart.getAttribute('data-chart-key'));
      const before = keysNow()[0] ?? null;
      const done = () => {
        const keys = keysNow();
        if (condition === 'firstChart') return keys.some((key) => key !== null);
        return keys.length > 0 && keys.every((key) => key !== null && key === keys[0]) && keys[0] !== before;
      };
      window.__chartTiming = new Promise<number>((resolve) => {
        let started: number | undefined;
        document.addEventListener(startEvent, () => (started ??= performance.now()), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (started === undefined || !done()) return;
          observer.disconnect();
          resolve(performance.now() - started);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-chart-key'] });
      });
    },
    { startEvent, condition },
  );
}

/** The armed timer's result in milliseconds, once its condition holds. */
export async function chartTimerResult(page: Page): Promise<number> {
  return page.evaluate(() => window.__chartTiming!);
}
