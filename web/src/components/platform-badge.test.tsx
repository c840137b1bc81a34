import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { brandPlatform, PlatformBadge } from './platform-badge';

afterEach(cleanup);

describe('PlatformBadge', () => {
  it('draws each of the six platforms with its brand mark, not a letter, in its brand colour', () => {
    const expected: [string, string, string][] = [
      ['YouTube', 'youtube', '#FF0000'],
      ['Instagram', 'instagram', 'url(#'],
      ['TikTok', 'tiktok', '#FFFFFF'],
      ['Twitter', 'twitter', '#FFFFFF'],
      ['LinkedIn', 'linkedin', '#0A66C2'],
      ['Patreon', 'patreon', '#FFFFFF'],
    ];
    for (const [name, platform, colour] of expected) {
      const { container } = render(<PlatformBadge name={name} />);
      const badge = container.querySelector(`[data-platform="${platform}"]`)!;
      expect(badge, name).not.toBeNull();
      expect(badge.textContent, name).toBe('');
      const paths = [...badge.querySelectorAll('path')];
      // The brand's shape is the last path drawn (YouTube and LinkedIn first lay white under their cut-outs).
      expect(paths.at(-1)!.getAttribute('d')!.length, name).toBeGreaterThan(50);
      expect(paths.at(-1)!.getAttribute('fill'), name).toContain(colour);
      // Decorative by default: the platform's name is written beside it.
      expect(badge.getAttribute('aria-hidden'), name).toBe('true');
      cleanup();
    }
  });

  it('is an image named after the platform where no name is written beside it', () => {
    render(<PlatformBadge name="LinkedIn" labelled />);
    expect(screen.getByRole('img', { name: 'LinkedIn' }).getAttribute('data-platform')).toBe('linkedin');
  });

  it('reads names and slugs alike, X as Twitter, and keeps the first letter for a platform without a mark', () => {
    expect(['youtube', 'YouTube', ' TikTok ', 'X', 'twitter'].map(brandPlatform)).toEqual(['youtube', 'youtube', 'tiktok', 'twitter', 'twitter']);
    expect(brandPlatform('Mastodon')).toBeNull();
    const { container } = render(<PlatformBadge name="mastodon" />);
    expect(container.textContent).toBe('M');
  });
});
