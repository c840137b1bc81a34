import { describe, expect, it } from 'vitest';
import { OTHER_PLATFORM_COLOUR, PLATFORM_PALETTE, platformColour } from './platform-palette.ts';
import { PLATFORM_NAMES } from './platforms.ts';

const DARK_PANEL = '#0f172a';
const COMBINED_LINE = '#818cf8';

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** CIE L*a*b* of an sRGB colour (D65), for a perceptual distance between two colours. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  const xyz = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const [fx, fy, fz] = xyz.map(f) as [number, number, number];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

function distance(a: string, b: string): number {
  const [l1, a1, b1] = lab(a);
  const [l2, a2, b2] = lab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

describe('the platform palette', () => {
  it('gives every platform its own colour, readable on the dark panels (3:1, WCAG non-text contrast)', () => {
    for (const name of PLATFORM_NAMES) expect(contrast(PLATFORM_PALETTE[name], DARK_PANEL), name).toBeGreaterThanOrEqual(3);
    expect(contrast(OTHER_PLATFORM_COLOUR, DARK_PANEL)).toBeGreaterThanOrEqual(3);
  });

  it('keeps every two platforms, the fallback grey and the combined line clearly apart', () => {
    const colours = [...PLATFORM_NAMES.map((name) => [name, PLATFORM_PALETTE[name]] as const), ['other', OTHER_PLATFORM_COLOUR] as const, ['combined', COMBINED_LINE] as const];
    for (const [i, [nameA, a]] of colours.entries())
      for (const [nameB, b] of colours.slice(i + 1)) expect(distance(a, b), `${nameA} vs ${nameB}`).toBeGreaterThan(25);
  });

  it('has the colours a creator expects: YouTube red, Instagram magenta, TikTok cyan, LinkedIn blue, Patreon orange', () => {
    const hue = (hex: string) => {
      const [, a, b] = lab(hex);
      return ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
    };
    expect(hue(PLATFORM_PALETTE.youtube)).toBeGreaterThan(15);
    expect(hue(PLATFORM_PALETTE.youtube)).toBeLessThan(45);
    expect(hue(PLATFORM_PALETTE.instagram)).toBeGreaterThan(300);
    expect(hue(PLATFORM_PALETTE.instagram)).toBeLessThan(345);
    expect(hue(PLATFORM_PALETTE.patreon)).toBeGreaterThan(50);
    expect(hue(PLATFORM_PALETTE.patreon)).toBeLessThan(75);
    expect(hue(PLATFORM_PALETTE.tiktok)).toBeGreaterThan(190);
    expect(hue(PLATFORM_PALETTE.tiktok)).toBeLessThan(240);
    expect(hue(PLATFORM_PALETTE.linkedin)).toBeGreaterThan(260);
    expect(hue(PLATFORM_PALETTE.linkedin)).toBeLessThan(300);
  });

  it('finds a platform by its key or its display name in any case, X as Twitter, anything else grey', () => {
    expect(platformColour('youtube')).toBe(PLATFORM_PALETTE.youtube);
    expect(platformColour('YouTube')).toBe(PLATFORM_PALETTE.youtube);
    expect(platformColour('Twitter')).toBe(PLATFORM_PALETTE.twitter);
    expect(platformColour('X')).toBe(PLATFORM_PALETTE.twitter);
    expect(platformColour('LinkedIn')).toBe(PLATFORM_PALETTE.linkedin);
    expect(platformColour('Myspace')).toBe(OTHER_PLATFORM_COLOUR);
  });
});
