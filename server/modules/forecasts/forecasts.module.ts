// Forecasts: followers and income ahead, with their intervals and track record (decision 024).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import { createForecastsRepository } from './forecasts.repository.ts';
import { forecastsRoutes } from './forecasts.routes.ts';
import { type AnswerCache, createForecastsService } from './forecasts.service.ts';
import { ROUND_FIGURES, roundFigureLabel } from './round-figures.ts';

export interface ForecastsModuleDeps {
  /** The account metric types that are follower totals (the analytics feature's). */
  followerTypes: readonly string[];
  /** Where computed answers are kept while the user's data is unchanged (the analytics feature's cache). */
  cached: AnswerCache;
}

export function forecastsModule({ db, clock }: Infrastructure, { followerTypes, cached }: ForecastsModuleDeps) {
  const forecasts = createForecastsService({ repository: createForecastsRepository(db, followerTypes), clock, milestones: { values: ROUND_FIGURES, label: roundFigureLabel }, cached });
  return { routes: (app: FastifyInstance) => forecastsRoutes(app, { forecasts }) };
}
