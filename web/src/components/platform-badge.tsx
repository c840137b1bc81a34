// The first letter of a platform's name in a coloured square: the platforms screen and the dashboard show it.

const colours: Record<string, string> = {
  youtube: 'bg-red-500/20 text-red-200',
  instagram: 'bg-pink-500/20 text-pink-200',
  tiktok: 'bg-cyan-500/20 text-cyan-200',
  twitter: 'bg-sky-500/20 text-sky-200',
  linkedin: 'bg-blue-500/20 text-blue-200',
  patreon: 'bg-orange-500/20 text-orange-200',
};

/** Decorative: the platform's name is always written next to it. */
export function PlatformBadge({ name, className = 'size-10' }: { name: string; className?: string }) {
  const colour = colours[name.toLowerCase()] ?? 'bg-indigo-500/20 text-indigo-200';
  return (
    <span aria-hidden="true" className={`flex shrink-0 items-center justify-center rounded-lg text-lg font-bold ${colour} ${className}`}>
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
