// Every table of the product, one file per feature. drizzle-kit reads this file to generate migrations.
export * from './schema/accounts.ts';
export * from './schema/rate-limits.ts';
export * from './schema/billing.ts';
export * from './schema/platforms.ts';
export * from './schema/analytics.ts';
export * from './schema/settings.ts';
export * from './schema/reports.ts';
export * from './schema/youtube.ts';
export * from './schema/events.ts';
export * from './schema/notifications.ts';
export * from './schema/api-tokens.ts';
export * from './schema/patreon.ts';
export * from './schema/exchange-rates.ts';
export * from './schema/mail.ts';
export * from './schema/quota.ts';
