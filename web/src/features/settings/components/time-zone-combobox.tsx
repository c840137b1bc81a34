import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { currentUtcOffset, matchesTimeZone, timeZoneLabel } from '../../../lib/time-zone';

/**
 * A searchable list of time zones (the ARIA 1.2 combobox with a listbox popup): typing filters by name, former name or
 * offset; Arrow keys move through the matches, Enter picks one, Escape closes the list and puts the chosen zone back.
 * Each zone shows its current offset from UTC.
 */
export function TimeZoneCombobox({
  label,
  value,
  zones,
  onChange,
  describedBy,
}: {
  label: string;
  /** The chosen zone, or null while none is chosen. */
  value: string | null;
  zones: readonly string[];
  onChange: (zone: string) => void;
  describedBy?: string;
}) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const [query, setQuery] = useState(value ? timeZoneLabel(value) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  // Offsets only once the list opens (each costs an Intl formatter), then kept for the page's life.
  const options = useMemo(() => (open ? zones.map((zone) => ({ zone, offset: currentUtcOffset(zone) })) : []), [zones, open]);
  // While the text is the chosen zone's name, the whole list shows; typing filters it.
  const filtering = !(value && query === timeZoneLabel(value));
  const matches = useMemo(() => (filtering ? options.filter((option) => matchesTimeZone(option.zone, query, option.offset)) : options), [options, query, filtering]);
  const activeIndex = Math.min(active, Math.max(matches.length - 1, 0));
  const optionId = (index: number) => `${id}-option-${index}`;

  // The chosen zone shows in the box when it changes from outside ("Use my time zone").
  useEffect(() => {
    setQuery(value ? timeZoneLabel(value) : '');
  }, [value]);

  // The active option stays in view as the arrow keys move it: the list scrolls, never the page around it.
  useEffect(() => {
    const list = listRef.current;
    const element = list?.children.item(activeIndex) as HTMLElement | null | undefined;
    if (!open || !list || !element) return;
    if (element.offsetTop < list.scrollTop) list.scrollTop = element.offsetTop;
    else if (element.offsetTop + element.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = element.offsetTop + element.offsetHeight - list.clientHeight;
  });

  function openAt(index: number) {
    setOpen(true);
    setActive(index);
  }

  function choose(zone: string) {
    onChange(zone);
    setQuery(timeZoneLabel(zone));
    setOpen(false);
  }

  function close() {
    setOpen(false);
    setQuery(value ? timeZoneLabel(value) : '');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const last = matches.length - 1;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) openAt(filtering || !value ? 0 : Math.max(zones.indexOf(value), 0));
      else setActive(Math.min(activeIndex + 1, last));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) openAt(filtering || !value ? 0 : Math.max(zones.indexOf(value), 0));
      else setActive(Math.max(activeIndex - 1, 0));
    } else if (event.key === 'Home' && open) {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End' && open) {
      event.preventDefault();
      setActive(Math.max(last, 0));
    } else if (event.key === 'Enter' && open) {
      // Enter picks the active match instead of submitting the form.
      event.preventDefault();
      const option = matches[activeIndex];
      if (option) choose(option.zone);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  }

  return (
    <div className="relative mt-1.5 w-full sm:w-96">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && matches.length > 0 ? optionId(activeIndex) : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        placeholder="Search, e.g. Berlin or New York"
        className="mt-1.5 block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-indigo-400"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          openAt(0);
        }}
        onFocus={(event) => event.target.select()}
        onClick={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <div className="absolute z-20 mt-1 w-full overflow-hidden rounded-lg border border-slate-600 bg-slate-900 shadow-xl">
          <ul ref={listRef} id={listId} role="listbox" aria-label={label} className="relative max-h-64 overflow-y-auto py-1">
            {matches.map((option, index) => (
              <li
                key={option.zone}
                id={optionId(index)}
                role="option"
                aria-selected={option.zone === value}
                className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${index === activeIndex ? 'bg-indigo-600 text-white' : 'text-slate-200'}`}
                // mousedown, not click: the input's blur would close the list first.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option.zone);
                }}
                onMouseMove={() => setActive(index)}
              >
                <span className="min-w-0 truncate">
                  {option.zone === value ? <span aria-hidden="true">✓ </span> : null}
                  {timeZoneLabel(option.zone)}
                </span>
                <span className={`shrink-0 tabular-nums ${index === activeIndex ? 'text-indigo-100' : 'text-slate-400'}`}>{option.offset}</span>
              </li>
            ))}
          </ul>
          {matches.length === 0 ? (
            <p role="status" className="px-3 py-2 text-sm text-slate-400">
              No time zone matches “{query}”. Try a city, such as Berlin or Kolkata.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
