import { describe, expect, it } from 'vitest';
import { locateFields } from '../../recipes/index.js';
import type { ScrapedPage } from '../../recipes/index.js';

const page = (text: string): ScrapedPage =>
  ({ state: 'ok', finalUrl: 'https://docs.example/client', text }) as unknown as ScrapedPage;

describe('locateFields', () => {
  it('flags a value found only inside a longer number of its quote ("0" in "30000")', () => {
    const [field] = locateFields({ max_retries_default: 0 }, [
      page('Timeouts. Default: 30000 ms for every request.'),
    ]);
    expect(field?.quote).toBe('Default: 30000 ms for every request.');
    expect(field?.flag).toBe('the value 0 is not in this quote');
  });

  it('backs a value stated as a whole number, with thousands separators', () => {
    const [field] = locateFields({ timeout_default: 30000 }, [
      page('Retries back off. The timeout defaults to 30,000 ms.'),
    ]);
    expect(field?.quote).toBe('The timeout defaults to 30,000 ms.');
    expect(field?.flag).toBeNull();
  });

  it('matches text values as whole words only', () => {
    const [field] = locateFields({ mode: 'fast' }, [
      page('Breakfast is served. The mode is fast.'),
    ]);
    expect(field?.quote).toBe('The mode is fast.');
    expect(field?.flag).toBeNull();
  });

  it('leaves a value found nowhere without a quote', () => {
    const [field] = locateFields({ port: 9999 }, [page('The server listens on port 8787.')]);
    expect(field).toMatchObject({ quote: null, url: null, flag: null });
  });
});
