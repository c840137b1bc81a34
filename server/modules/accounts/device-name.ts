// A session's device in words ("Firefox on Windows"), from the User-Agent stored at sign-in, so a user can tell their
// sessions apart in Settings. Only the common browsers and systems are named; anything else says less, never wrong.

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  // Order matters: Edge, Opera and Samsung Internet also say "Chrome", and Chrome also says "Safari".
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  // Before Mac and Linux: an iPad says "Mac OS X", Android says "Linux".
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (patterns: readonly (readonly [RegExp, string])[], userAgent: string) => patterns.find(([pattern]) => pattern.test(userAgent))?.[1];

export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown device';
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  // A script or an app: its own first word ("curl/8.5.0" → "curl"), bounded.
  const product = /^[A-Za-z][\w.-]{0,40}/.exec(userAgent.trim())?.[0];
  return product && product !== 'Mozilla' ? product : 'Unknown device';
}
