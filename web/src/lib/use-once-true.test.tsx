import { renderHook } from '@testing-library/react';
import { expect, it } from 'vitest';
import { useOnceTrue } from './use-once-true';

it('stays true once its condition has been true, so a later refetch does not bring the skeleton back', () => {
  const { result, rerender } = renderHook(({ condition }) => useOnceTrue(condition), { initialProps: { condition: false } });
  expect(result.current).toBe(false);
  rerender({ condition: true });
  expect(result.current).toBe(true);
  rerender({ condition: false });
  expect(result.current).toBe(true);
});
