import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportYoutubeVideos } from './export-youtube-videos';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('exportYoutubeVideos', () => {
  it('asks for the table’s order and search, and reads the server’s file name', async () => {
    const fetch = vi.fn(async () => new Response('x', { status: 200, headers: { 'content-disposition': 'attachment; filename="analytics-hub-youtube-videos-2026-11-02.csv"' } }));
    vi.stubGlobal('fetch', fetch);
    const file = await exportYoutubeVideos({ page: 3, sort: 'views', order: 'asc', search: 'cooking show' }, 'csv');
    // Every page, so the table's page is not sent.
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/youtubeanalytics/export?format=csv&sort=views&order=asc&search=cooking+show');
    expect(file.fileName).toBe('analytics-hub-youtube-videos-2026-11-02.csv');
  });

  it('leaves out an empty search', async () => {
    const fetch = vi.fn(async () => new Response('%PDF-', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await exportYoutubeVideos({ page: 1, sort: 'publishedAt', order: 'desc', search: '' }, 'pdf');
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/youtubeanalytics/export?format=pdf&sort=publishedAt&order=desc');
  });
});
