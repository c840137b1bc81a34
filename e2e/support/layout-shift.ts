// Cumulative Layout Shift as Chromium reports it: a PerformanceObserver for 'layout-shift' entries installed
// before the page's own scripts run (buffered, so nothing before it is missed). Shifts right after user input are
// left out, as the CLS metric does; each shift keeps the elements it moved, so a failing test names them.
import type { Page } from '@playwright/test';

export interface LayoutShift {
  value: number;
  sources: string[];
}

declare global {
  interface Window {
    __layoutShifts?: LayoutShift[];
  }
}

/** Call once per page, before the first navigation. */
export async function recordLayoutShifts(page: Page) {
  // Scripts run with tsx (bench/web.ts) keep function names through an `__name` helper that the page lacks.
  await page.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await page.addInitScript(() => {
    const describe = (node: Node | null | undefined): string => {
      if (!node) return '(removed node)';
      if (!(node instanceof Element)) return `#text "${(node.textContent ?? '').trim().slice(0, 40)}"`;
      const parts: string[] = [];
      for (let element: Element | null = node; element && parts.length < 4; element = element.parentElement) {
        const label = element.getAttribute('aria-label') ?? element.getAttribute('data-testid') ?? '';
        const classes = (element.getAttribute('class') ?? '').split(/\s+/).slice(0, 3).join('.');
        parts.unshift(`${element.tagName.toLowerCase()}${label ? `[${label}]` : ''}${classes ? `.${classes}` : ''}`);
      }
      const text = (node.textContent ?? '').trim().slice(0, 40);
      return `${parts.join(' > ')}${text ? ` "${text}"` : ''}`;
    };
    window.__layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEntry[] & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
        if (entry.hadRecentInput) continue;
        window.__layoutShifts!.push({ value: entry.value, sources: (entry.sources ?? []).map((source) => describe(source.node)) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts since the page loaded (or since the last `resetLayoutShifts`), and their sum. */
export async function layoutShifts(page: Page): Promise<{ cls: number; shifts: LayoutShift[] }> {
  // Layout shifts are reported after the frame that caused them: wait two frames so the last one is in.
  const shifts = await page.evaluate(
    () =>
      new Promise<LayoutShift[] | null>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.__layoutShifts ?? null))),
      ),
  );
  // No list at all means the observer never ran: say so rather than report a CLS of 0.
  if (shifts === null) throw new Error('No layout-shift observer in this page: call recordLayoutShifts(page) before navigating.');
  return { cls: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts };
}
