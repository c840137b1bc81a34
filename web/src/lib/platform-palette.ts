// The charts' platform colours: the contract's palette, shared with the server's breakdown and PDF report.
export { OTHER_PLATFORM_COLOUR, PLATFORM_PALETTE, platformColour, YOUTUBE_REVENUE_SHADES } from '#contract/platform-palette.ts';
