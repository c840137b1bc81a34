import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CHART_HEIGHT_CLASS, ChartSlot } from './chart-slot';

afterEach(cleanup);

describe('ChartSlot', () => {
  it('keeps the same height for the loading line, a message and the chart', () => {
    const { container, rerender } = render(<ChartSlot loading>{null}</ChartSlot>);
    const slot = () => container.firstElementChild as HTMLElement;
    expect(slot().className).toContain(CHART_HEIGHT_CLASS);
    expect(screen.getByRole('status').textContent).toBe('Loading chart...');
    rerender(<ChartSlot message="No days reported yet.">{null}</ChartSlot>);
    expect(slot().className).toContain(CHART_HEIGHT_CLASS);
    expect(screen.getByText('No days reported yet.')).toBeTruthy();
    rerender(
      <ChartSlot heightClass="h-40">
        <canvas data-testid="chart" />
      </ChartSlot>,
    );
    expect(slot().className).toContain('h-40');
    expect(screen.getByTestId('chart')).toBeTruthy();
  });
});
