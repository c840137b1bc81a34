import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportFormat } from '#contract/exports.ts';
import { ApiError, type DownloadedFile } from '../lib/api-client';
import { ExportMenu } from './export-menu';

afterEach(cleanup);

/** A promise the test settles by hand, so the in-between state can be looked at. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('ExportMenu', () => {
  it('offers CSV, JSON and PDF as a labelled group of buttons', () => {
    render(<ExportMenu onExport={vi.fn()} fallbackName="export" save={vi.fn()} />);
    const group = screen.getByRole('group', { name: 'Export' });
    expect(group).toBeTruthy();
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Export CSV', 'Export JSON', 'Export PDF']);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['CSV', 'JSON', 'PDF']);
  });

  it('says it is exporting, then saves the file under the server’s name and says so', async () => {
    const pending = deferred<DownloadedFile>();
    const onExport = vi.fn((_format: ExportFormat) => pending.promise);
    const save = vi.fn();
    render(<ExportMenu onExport={onExport} fallbackName="export" save={save} />);

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(onExport).toHaveBeenCalledWith('csv');
    expect(screen.getByRole('status').textContent).toBe('Exporting CSV…');
    for (const button of screen.getAllByRole('button')) expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Export CSV' }).getAttribute('aria-busy')).toBe('true');

    // A second click while busy starts nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(onExport).toHaveBeenCalledTimes(1);

    const blob = new Blob(['Date,Platform\r\n'], { type: 'text/csv' });
    pending.resolve({ blob, fileName: 'analytics-hub-last-30-days-2026-11-02.csv' });
    expect(await screen.findByText('Downloaded analytics-hub-last-30-days-2026-11-02.csv')).toBeTruthy();
    expect(save).toHaveBeenCalledWith(blob, 'analytics-hub-last-30-days-2026-11-02.csv');
    for (const button of screen.getAllByRole('button')) expect(button.getAttribute('aria-disabled')).toBe('false');
  });

  it('names the file itself when the server gave no name', async () => {
    const save = vi.fn();
    const blob = new Blob(['%PDF-']);
    render(<ExportMenu onExport={async () => ({ blob, fileName: null })} fallbackName="analytics-hub-export" save={save} />);
    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(await screen.findByText('Downloaded analytics-hub-export.pdf')).toBeTruthy();
    expect(save).toHaveBeenCalledWith(blob, 'analytics-hub-export.pdf');
  });

  it('explains a failure in words, with the server’s message, and lets the user try again', async () => {
    const onExport = vi
      .fn<(format: ExportFormat) => Promise<DownloadedFile>>()
      .mockRejectedValueOnce(new ApiError(400, 'The date range may span at most three years', {}))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce({ blob: new Blob(['{}']), fileName: 'a.json' });
    const save = vi.fn();
    render(<ExportMenu onExport={onExport} fallbackName="export" save={save} />);

    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The export failed: The date range may span at most three years. Please try again.');
    expect(save).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The export failed: the server could not be reached or the download was cut off. Check your connection and try again.');

    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(await screen.findByText('Downloaded a.json')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
