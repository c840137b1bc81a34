import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { type BestTimesCell, cellSentence } from '#contract/best-times.ts';
import { WEEKDAY_NAMES } from '#contract/reports.ts';
import { Skeleton } from '../../../components/ui/skeleton';
import { cellClassName, firstHourWithPosts, gridRows, HOURS_PER_DAY, initialCellIndex, nextCellIndex, NO_POSTS_CLASS, RATIO_BANDS, TOO_FEW_CLASS } from '../utils/best-times';

const HOURS = Array.from({ length: HOURS_PER_DAY }, (_, hour) => hour);
const twoDigits = (value: number) => String(value).padStart(2, '0');
/** Wide enough for 24 tappable columns; narrower screens scroll the grid sideways. */
const GRID_CLASSES = 'w-full min-w-[42rem] table-fixed border-separate border-spacing-0.5';

/**
 * The 7 × 24 heatmap as an ARIA grid: one cell is in the tab order, the arrow keys (and Home, End) move through the
 * rest, and each cell's name says its slot, ratio and posts ("Tuesday 18:00–19:00: 1.4× typical, 6 posts").
 */
export function BestTimesHeatmap({ cells, best, label }: { cells: BestTimesCell[]; best: { weekday: number; hour: number } | undefined; label: string }) {
  const rows = gridRows(cells);
  const [active, setActive] = useState(() => initialCellIndex(cells, best));
  const cellRefs = useRef<(HTMLTableCellElement | null)[]>([]);
  const scroller = useRef<HTMLDivElement>(null);
  const openingHour = firstHourWithPosts(cells);
  // A phone shows a third of the day: open the grid on the first hour that holds posts, not on midnight (issue 25).
  useLayoutEffect(() => {
    const box = scroller.current;
    const firstCell = openingHour === null ? null : cellRefs.current[openingHour];
    const rowHeader = box?.querySelector('tbody th');
    if (!box || !firstCell || box.scrollWidth <= box.clientWidth) return;
    box.scrollLeft = Math.max(0, firstCell.offsetLeft - (rowHeader instanceof HTMLElement ? rowHeader.offsetWidth : 0) - 4);
  }, [openingHour]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const next = nextCellIndex(active, event.key);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    cellRefs.current[next]?.focus();
  };

  return (
    <div ref={scroller} className="overflow-x-auto pb-2">
      <table role="grid" aria-label={label} className={GRID_CLASSES} onKeyDown={onKeyDown}>
        <HourHeader />
        <tbody>
          {rows.map((row, day) => (
            <tr key={day}>
              <th scope="row" className="sticky left-0 z-10 w-12 bg-slate-900 pr-1 text-left text-xs font-medium text-slate-300">
                <abbr title={WEEKDAY_NAMES[day]} className="no-underline">
                  {WEEKDAY_NAMES[day]!.slice(0, 3)}
                </abbr>
              </th>
              {row.map((cell) => {
                const index = day * HOURS_PER_DAY + cell.hour;
                const name = cellSentence(cell);
                return (
                  <td
                    key={cell.hour}
                    ref={(element) => {
                      cellRefs.current[index] = element;
                    }}
                    role="gridcell"
                    tabIndex={index === active ? 0 : -1}
                    aria-label={name}
                    title={name}
                    onFocus={() => setActive(index)}
                    className={`h-7 rounded-sm outline-offset-1 focus-visible:outline-2 focus-visible:outline-white ${cellClassName(cell)}`}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HourHeader() {
  return (
    <thead>
      <tr>
        <th scope="col" className="sticky left-0 z-10 w-12 bg-slate-900">
          <span className="sr-only">Weekday</span>
        </th>
        {HOURS.map((hour) => (
          <th key={hour} scope="col" aria-label={`${twoDigits(hour)}:00`} className="text-center text-[10px] font-normal text-slate-400">
            {/* Every third hour is printed; the others are named for screen readers only. */}
            <span aria-hidden="true">{hour % 3 === 0 ? twoDigits(hour) : ''}</span>
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The grid's size while the answer loads, so nothing jumps when it arrives. */
export function BestTimesHeatmapSkeleton() {
  return (
    <div className="overflow-x-auto pb-2" aria-hidden="true">
      <table className={GRID_CLASSES}>
        <HourHeader />
        <tbody>
          {WEEKDAY_NAMES.map((name) => (
            <tr key={name}>
              <th scope="row" className="w-12 pr-1 text-left text-xs font-medium text-slate-400">
                {name.slice(0, 3)}
              </th>
              {HOURS.map((hour) => (
                <td key={hour} className="h-7 p-0">
                  <Skeleton className="h-7 rounded-sm" />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function BestTimesLegend({ id }: { id: string }) {
  const swatch = 'inline-block size-3.5 shrink-0 rounded-sm';
  return (
    <ul id={id} aria-label="Colour key" className="mt-3 flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-slate-300">
      {RATIO_BANDS.map((band) => (
        <li key={band.label} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`${swatch} ${band.className}`} />
          {band.label}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className={`${swatch} ${TOO_FEW_CLASS}`} />
        Too few posts
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className={`${swatch} ${NO_POSTS_CLASS}`} />
        No posts
      </li>
    </ul>
  );
}
