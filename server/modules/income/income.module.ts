// Income: revenue and pledges by month and source, patron conversion, and the ECB rates that convert currencies.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import { createExchangeRates, exchangeRatesJob } from './exchange-rates.ts';
import { createIncomeRepository } from './income.repository.ts';
import { incomeRoutes } from './income.routes.ts';
import { createIncomeService } from './income.service.ts';
import { patronConversionRoutes } from './patron-conversion.routes.ts';
import { createPatronConversionService } from './patron-conversion.service.ts';

export function incomeModule({ config, db, clock, logger, boss }: Infrastructure) {
  const income = createIncomeService({ repository: createIncomeRepository(db), clock });
  const patronConversion = createPatronConversionService({ db, clock });
  const rates = createExchangeRates({ db, clock, apiUrl: config.exchangeRates.apiUrl, timeoutMs: config.platformTimeoutMs, logger });
  return {
    income,
    jobs: [exchangeRatesJob({ rates, boss, clock, logger })],
    routes: (app: FastifyInstance) => {
      patronConversionRoutes(app, { patronConversion });
      incomeRoutes(app, { income });
    },
  };
}
