// Time comes from a clock so that expiry, rate limits and trials can be tested without sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
