// A platform's brand mark on a dark tile: the platforms screen, the dashboard and the posts table show it.
// The marks are Font Awesome Free brand icons (CC BY 4.0, credited in the README): only their path data is
// imported, so no icon library runs in the browser. Colours follow each brand's guidelines for dark backgrounds:
// YouTube red (#FF0000) with a white play triangle, LinkedIn blue (#0A66C2) with a white "in", the Instagram
// gradient, and the one-colour (white) marks of TikTok, X and Patreon, whose guidelines allow black or white only.
import { faInstagram } from '@fortawesome/free-brands-svg-icons/faInstagram';
import { faLinkedin } from '@fortawesome/free-brands-svg-icons/faLinkedin';
import { faPatreon } from '@fortawesome/free-brands-svg-icons/faPatreon';
import { faTiktok } from '@fortawesome/free-brands-svg-icons/faTiktok';
import { faXTwitter } from '@fortawesome/free-brands-svg-icons/faXTwitter';
import { faYoutube } from '@fortawesome/free-brands-svg-icons/faYoutube';
import { useId, type ReactNode } from 'react';

type IconDefinition = typeof faYoutube;

function pathOf(icon: IconDefinition): string {
  const data = icon.icon[4];
  return Array.isArray(data) ? data.join(' ') : data;
}

function viewBoxOf(icon: IconDefinition): string {
  return `0 0 ${icon.icon[0]} ${icon.icon[1]}`;
}

export type BrandPlatform = 'youtube' | 'instagram' | 'tiktok' | 'twitter' | 'linkedin' | 'patreon';

/** The platform a name or slug stands for ('YouTube', 'youtube', 'Twitter', 'X', ...), or null for any other. */
export function brandPlatform(name: string): BrandPlatform | null {
  const key = name.trim().toLowerCase();
  if (key === 'x') return 'twitter';
  return key === 'youtube' || key === 'instagram' || key === 'tiktok' || key === 'twitter' || key === 'linkedin' || key === 'patreon' ? key : null;
}

function Mark({ platform, gradientId }: { platform: BrandPlatform; gradientId: string }): ReactNode {
  switch (platform) {
    case 'youtube':
      return (
        <svg viewBox={viewBoxOf(faYoutube)} className="size-full">
          {/* The play triangle is a hole in the red shape: white shows through it. */}
          <path d="M232.2 175.2 374.9 256.4 232.2 337.6z" fill="#FFFFFF" />
          <path d={pathOf(faYoutube)} fill="#FF0000" />
        </svg>
      );
    case 'linkedin':
      return (
        <svg viewBox={viewBoxOf(faLinkedin)} className="size-full">
          {/* The letters are holes in the blue square: white shows through them. */}
          <rect x="50" y="80" width="348" height="352" fill="#FFFFFF" />
          <path d={pathOf(faLinkedin)} fill="#0A66C2" />
        </svg>
      );
    case 'instagram':
      return (
        <svg viewBox={viewBoxOf(faInstagram)} className="size-full">
          <defs>
            <linearGradient id={gradientId} x1="0" y1="1" x2="1" y2="0">
              <stop offset="0" stopColor="#FEDA75" />
              <stop offset="0.3" stopColor="#FA7E1E" />
              <stop offset="0.55" stopColor="#D62976" />
              <stop offset="0.8" stopColor="#962FBF" />
              <stop offset="1" stopColor="#4F5BD5" />
            </linearGradient>
          </defs>
          <path d={pathOf(faInstagram)} fill={`url(#${gradientId})`} />
        </svg>
      );
    case 'tiktok':
      return (
        <svg viewBox={viewBoxOf(faTiktok)} className="size-full">
          <path d={pathOf(faTiktok)} fill="#FFFFFF" />
        </svg>
      );
    case 'twitter':
      return (
        <svg viewBox={viewBoxOf(faXTwitter)} className="size-full">
          <path d={pathOf(faXTwitter)} fill="#FFFFFF" />
        </svg>
      );
    case 'patreon':
      return (
        <svg viewBox={viewBoxOf(faPatreon)} className="size-full">
          <path d={pathOf(faPatreon)} fill="#FFFFFF" />
        </svg>
      );
  }
}

interface PlatformBadgeProps {
  /** The platform's name or slug ('YouTube', 'youtube', 'Twitter', ...). */
  name: string;
  /** Size of the tile (and so of the mark, about 60 % of it). */
  className?: string;
  /**
   * Where the platform's name is not written next to the mark, give it one: it is then an image named after the
   * platform. By default it is decorative, because the name is always written beside it.
   */
  labelled?: boolean;
}

export function PlatformBadge({ name, className = 'size-10', labelled = false }: PlatformBadgeProps) {
  const gradientId = useId();
  const platform = brandPlatform(name);
  const a11y = labelled ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true as const };
  return (
    <span
      {...a11y}
      data-platform={platform ?? undefined}
      className={`flex shrink-0 items-center justify-center rounded-lg bg-slate-800 text-lg font-bold text-slate-200 ring-1 ring-slate-700/60 ${className}`}
    >
      {platform ? (
        <span className="block size-[60%]">
          <Mark platform={platform} gradientId={gradientId} />
        </span>
      ) : (
        // A platform without a mark of its own keeps the first letter of its name.
        name.charAt(0).toUpperCase()
      )}
    </span>
  );
}
