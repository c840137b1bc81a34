// Start-up only: configuration → database → sandbox stand-ins (when credentials are missing) → app → listen.
import path from 'node:path';
import { pino } from 'pino';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import type { StripeSandbox } from '../sandbox/stripe/stripe-sandbox.ts';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig, needsExchangeRatesSandbox, withExchangeRatesSandbox, withPlatformSandbox, withStripeSandbox } from './config.ts';
import { openDatabase } from './db/client.ts';
import { freePort } from './lib/free-port.ts';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel });

  const database = await openDatabase(config);
  await database.migrate();
  log.info({ database: database.kind }, 'database ready');

  // The stand-ins are loaded only when the sandbox runs: a deployment never even evaluates their code.
  const loadSandbox = () =>
    Promise.all([
      import('../sandbox/mailbox/mailbox.ts'),
      import('../sandbox/exchange-rates/ecb-sandbox.ts'),
      import('../sandbox/platforms/platform-sandbox.ts'),
      import('../sandbox/stripe/stripe-sandbox.ts'),
    ]).then(([mailbox, ecb, platforms, stripe]) => ({ ...mailbox, ...ecb, ...platforms, ...stripe }));
  const sandboxCode = config.sandbox ? await loadSandbox() : undefined;

  const sandboxParts: { close(): Promise<void> }[] = [];
  let sandboxRoutes: ((app: import('fastify').FastifyInstance) => void) | undefined;
  let sandboxMailboxPath: string | undefined;
  if (sandboxCode && !config.smtpUrl) {
    const mailbox = await sandboxCode.startSandboxMailbox({ directory: path.join(config.dataDir, 'mail'), logger: log });
    config = { ...config, smtpUrl: mailbox.smtpUrl };
    sandboxRoutes = mailbox.routes;
    sandboxMailboxPath = mailbox.pagePath;
    sandboxParts.push(mailbox);
    log.info({ url: `${config.publicUrl}${mailbox.pagePath}` }, 'sandbox mailbox: no SMTP_URL, emails are kept locally');
  }

  // The sandbox posts webhooks to the app, so it must know the app's port before the app (which needs the
  // sandbox's key and price) is built; PORT=0 therefore takes a free port now.
  const port = config.port === 0 ? await freePort() : config.port;
  let stripeSandbox: StripeSandbox | undefined;
  if (sandboxCode && !config.isStripeConfigured) {
    const webhookHost = ['0.0.0.0', '::', 'localhost'].includes(config.host) ? '127.0.0.1' : config.host;
    stripeSandbox = await sandboxCode.startStripeSandbox({
      webhookUrl: `http://${webhookHost.includes(':') ? `[${webhookHost}]` : webhookHost}:${port}/api/stripe/webhook`,
      // Customers, subscriptions and the price survive restarts, as they would at Stripe.
      stateFile: path.join(config.dataDir, 'stripe-sandbox.json'),
      logger: log,
    });
    config = withStripeSandbox(config, stripeSandbox);
    sandboxParts.push(stripeSandbox);
    log.info({ api: stripeSandbox.baseUrl, paymentLink: stripeSandbox.paymentLinkUrl }, 'Stripe sandbox: no Stripe keys, billing runs against a local Stripe');
  }

  const unconfiguredPlatforms = PLATFORM_NAMES.filter((platform) => !config.platforms[platform].isConfigured);
  if (sandboxCode && unconfiguredPlatforms.length > 0) {
    const platformSandbox = await sandboxCode.startPlatformSandbox({
      logger: log,
      // Grants and tokens survive restarts, as at the real platforms: restarting never means connecting again.
      stateFile: path.join(config.dataDir, 'platform-sandbox.json'),
      // Callbacks on the public URL are registered exactly (loopback ones are accepted by the sandbox anyway).
      allowedRedirectUris: PLATFORM_NAMES.map((platform) => `${config.publicUrl}/auth/${platform}/callback`),
    });
    config = withPlatformSandbox(config, platformSandbox);
    sandboxParts.push(platformSandbox);
    log.info({ url: platformSandbox.baseUrl, platforms: unconfiguredPlatforms }, 'platform sandbox: platforms without credentials connect to local stand-ins');
  }

  if (sandboxCode && needsExchangeRatesSandbox(config)) {
    const ecbSandbox = await sandboxCode.startEcbSandbox();
    config = withExchangeRatesSandbox(config, ecbSandbox);
    sandboxParts.push(ecbSandbox);
    log.info({ url: ecbSandbox.baseUrl }, 'ECB sandbox: no real YouTube or Patreon credentials, the income view converts with local reference rates');
  }

  const { app, startDraining } = await buildApp({ config, database, sandboxRoutes, sandboxMailboxPath });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    // First drain: readiness answers 503 so the load balancer stops sending, while everything it still sends
    // (it takes a probe interval or two to notice) is served. Only then does the server stop taking requests.
    startDraining();
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: readiness answers 503, still serving while the drain lasts');
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    app.log.info('drain over: closing the server');
    const forceExit = setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    forceExit.unref();
    try {
      // A webhook delivery in flight would keep its keep-alive connection open and stall app.close() for
      // Fastify's keepAliveTimeout (72 s): let the sandbox's deliveries finish first.
      await stripeSandbox?.flushWebhooks();
      // Requests in flight finish; idle connections are closed; a request arriving now gets 503.
      await app.close();
      await Promise.all(sandboxParts.map((part) => part.close()));
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port, host: config.host });
  app.log.info({ url: config.publicUrl, sandbox: config.sandbox }, 'Analytics Hub is running');
}

await main();
