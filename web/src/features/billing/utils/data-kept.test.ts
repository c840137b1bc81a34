import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDisplayTimeZone } from '../../../lib/format';
import { dataKeptText } from './data-kept';

describe('dataKeptText', () => {
  beforeAll(() => setDisplayTimeZone('UTC'));
  afterAll(() => setDisplayTimeZone(null));
  const now = new Date('2027-01-01T12:00:00Z');

  it('says nothing while access is valid', () => {
    expect(dataKeptText(null, now)).toBeNull();
    expect(dataKeptText(undefined, now)).toBeNull();
  });

  it('says until when the data is kept, and how to keep it', () => {
    expect(dataKeptText('2027-01-20T09:30:00.000Z', now)).toBe('Your synced platform data is kept until Jan 20, 2027, then deleted. Subscribe again before then to keep it.');
  });

  it('says when it was deleted once the date has passed', () => {
    expect(dataKeptText('2026-12-20T09:30:00.000Z', now)).toBe('Your synced platform data was deleted on Dec 20, 2026, 30 days after your access ended. Your account and settings are kept.');
  });
});
