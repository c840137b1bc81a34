// One colour per platform on every chart, on screen and in the PDF report, so a platform reads the same everywhere.
// Each is readable on the app's dark panels (slate-900, #0f172a) at 3:1 or more (WCAG 1.4.11, non-text contrast),
// and no two are neighbours on the colour wheel: YouTube red, Instagram magenta (not YouTube's red), TikTok cyan,
// X light grey, LinkedIn blue, Patreon orange (not YouTube's red, not LinkedIn's blue). The combined "all platforms"
// line keeps the app's indigo (chart theme), which none of these is.
import { PLATFORM_CATALOGUE, PLATFORM_NAMES, type PlatformName } from './platforms.ts';

export const PLATFORM_PALETTE: Readonly<Record<PlatformName, string>> = {
  youtube: '#f87171', // red-400
  instagram: '#e879f9', // fuchsia-400
  tiktok: '#22d3ee', // cyan-400
  twitter: '#e2e8f0', // slate-200: X's own black and white, light on dark
  linkedin: '#1d9bf0', // a light blue: LinkedIn's own #0A66C2 is too dark on the panels, and blue-500 too near the indigo total
  patreon: '#fb923c', // orange-400
};

/** A platform outside the catalogue (never one of the six): a mid grey none of them uses. */
export const OTHER_PLATFORM_COLOUR = '#a8a29e'; // stone-400

/**
 * Shades of one platform's colour for the parts of its own total (YouTube's ad, Premium and other revenue), so a
 * stacked chart still reads as that platform beside the others.
 */
export const YOUTUBE_REVENUE_SHADES = { ad: PLATFORM_PALETTE.youtube, premium: '#fca5a5', other: '#dc2626' } as const; // red-300, red-600

const byDisplayName = new Map<string, PlatformName>(PLATFORM_NAMES.map((name) => [PLATFORM_CATALOGUE[name].name.toLowerCase(), name]));
byDisplayName.set('x', 'twitter');

/** The colour of a platform by its key ('youtube') or its display name ('YouTube', 'Twitter', 'X'), in any case. */
export function platformColour(platform: string): string {
  const lower = platform.trim().toLowerCase();
  const key = (PLATFORM_NAMES as readonly string[]).includes(lower) ? (lower as PlatformName) : byDisplayName.get(lower);
  return key ? PLATFORM_PALETTE[key] : OTHER_PLATFORM_COLOUR;
}
