import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { Dialog } from './dialog';

afterEach(cleanup);

function Harness({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <Dialog
      open={open}
      title="What changed"
      onClose={() => {
        onClose();
        setOpen(false);
      }}
      footer={<button type="button">Done</button>}
    >
      <p>Views rose by 12 %.</p>
    </Dialog>
  );
}

it('closes from its × button, named after the dialog, which comes after the content in the focus order', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'What changed' });
  const buttons = [...dialog.querySelectorAll('button')].map((button) => button.getAttribute('aria-label') ?? button.textContent);
  expect(buttons).toEqual(['Done', 'Close What changed']);
  fireEvent.click(screen.getByRole('button', { name: 'Close What changed' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(dialog.hasAttribute('open')).toBe(false);
});

it('closes on a tap outside it (the backdrop), not on a tap inside', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  fireEvent.click(screen.getByText('Views rose by 12 %.'));
  expect(onClose).not.toHaveBeenCalled();
  // A click on the backdrop reaches the dialog element itself.
  fireEvent.click(screen.getByRole('dialog', { name: 'What changed' }));
  expect(onClose).toHaveBeenCalledTimes(1);
});

it('closes on Escape (the dialog’s cancel event)', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  fireEvent(screen.getByRole('dialog', { name: 'What changed' }), new Event('cancel', { cancelable: true }));
  expect(onClose).toHaveBeenCalledTimes(1);
});
