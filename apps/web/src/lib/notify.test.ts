import { notifications } from '@mantine/notifications';
import { TOAST_PLACEMENTS } from '@palisade/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify, TOAST_POSITIONS, TOAST_TRANSITION_MS } from './notify';

describe('notify', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('maps each of the six spec placements to its own Mantine position', () => {
    expect(TOAST_POSITIONS).toEqual({
      topCenter: 'top-center',
      bottomCenter: 'bottom-center',
      topStart: 'top-left',
      topEnd: 'top-right',
      bottomStart: 'bottom-left',
      bottomEnd: 'bottom-right',
    });
    expect(new Set(TOAST_PLACEMENTS.map((p) => TOAST_POSITIONS[p])).size).toBe(6);
  });

  it('fades in 300 ms and leaves the DOM 400 ms after hiding starts', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notify('Saved', { placement: 'bottomStart', color: 'green' });
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({
        message: 'Saved',
        color: 'green',
        position: 'bottom-left',
        style: { transitionDuration: '300ms' },
      }),
    );
    expect(TOAST_TRANSITION_MS).toBe(400);
  });

  it('shows at the top end by default', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notify('Hello');
    expect(show.mock.calls[0][0].position).toBe('top-right');
  });
});
