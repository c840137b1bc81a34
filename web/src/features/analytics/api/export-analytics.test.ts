import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileNameFromDisposition } from '../../../lib/api-client';
import { exportAnalytics } from './export-analytics';

beforeEach(() => {
  window.localStorage.setItem('auth_token', 'session-token');
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('exportAnalytics', () => {
  it('asks for the file with the screen’s filters and the bearer token, and reads the server’s file name', async () => {
    const fetch = vi.fn(
      async () =>
        new Response('\uFEFFDate,Platform,Metric,Value,Content title\r\n', {
          status: 200,
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="analytics-hub-youtube-last-90-days-2026-11-02.csv"' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const file = await exportAnalytics({ days: 90, platformId: 1, metricType: 'likes' }, 'csv');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/analytics/export?format=csv&days=90&platformId=1&metricType=likes');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer session-token');
    expect(file.fileName).toBe('analytics-hub-youtube-last-90-days-2026-11-02.csv');
    expect(await file.blob.text()).toContain('Date,Platform,Metric,Value,Content title');
  });

  it('leaves out the filters that are not set', async () => {
    const fetch = vi.fn(async () => new Response('%PDF-', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const file = await exportAnalytics({ days: 30, platformId: null, metricType: null }, 'pdf');
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/analytics/export?format=pdf&days=30');
    expect(file.fileName).toBeNull();
  });

  it('turns an error answer into an error with the server’s message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'format must be one of csv, json, pdf', code: 'bad_request' }), { status: 400 })));
    await expect(exportAnalytics({ days: 30, platformId: null, metricType: null }, 'csv')).rejects.toThrow('format must be one of csv, json, pdf');
  });
});

describe('fileNameFromDisposition', () => {
  it('reads quoted and bare names and never a path', () => {
    expect(fileNameFromDisposition('attachment; filename="a-b.csv"')).toBe('a-b.csv');
    expect(fileNameFromDisposition('attachment; filename=a.json')).toBe('a.json');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
