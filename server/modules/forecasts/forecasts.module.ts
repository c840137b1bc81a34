// Forecasts: followers and income ahead, with their intervals and track record (decision 024).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import { createForecastsRepository } from './forecasts.repository.ts';
import { forecastsRoutes } from './forecasts.routes.ts';
import { type AnswerCache, createForecastsService } from './forecasts.service.ts';

export interface ForecastsModuleDeps {
  /** The account metric types that are follower totals (the analytics feature's). */
  followerTypes: readonly string[];
  /** The follower milestones a forecast dates (the notifications feature's). */
  milestones: { values: readonly number[]; label: (milestone: number) => string };
  /** Where computed answers are kept while the user's data is unchanged (the analytics feature's cache). */
  cached: AnswerCache;
}

export function forecastsModule({ db, clock }: Infrastructure, { followerTypes, milestones, cached }: ForecastsModuleDeps) {
  const forecasts = createForecastsService({ repository: createForecastsRepository(db, followerTypes), clock, milestones, cached });
  return { routes: (app: FastifyInstance) => forecastsRoutes(app, { forecasts }) };
}
