import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { EventDiff } from './event-diff';

const rowOf = (field: string) => screen.getByRole('rowheader', { name: field }).closest('tr')!;

describe('EventDiff', () => {
  it('lists added, removed and changed fields with their values, highlighted by kind', async () => {
    const { user } = renderWithProviders(
      <EventDiff
        before={{ firstname: 'Log', suci: 'suci-0-1', groups: ['a'], username: 'x@acme.test' }}
        after={{ firstname: 'Logan', isprvaccess: true, groups: ['a', 'b'], username: 'x@acme.test' }}
      />,
    );
    const changed = screen.getByRole('table', { name: 'Changed fields' });
    const fields = within(changed)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(fields).toEqual(['firstname', 'groups', 'isprvaccess', 'suci']);

    const firstname = rowOf('firstname');
    expect(firstname).toHaveAttribute('data-change', 'changed');
    expect(within(firstname).getByText('Log')).toBeInTheDocument();
    expect(within(firstname).getByText('Logan')).toBeInTheDocument();
    expect(within(firstname).getByText('Changed')).toBeInTheDocument();

    const added = rowOf('isprvaccess');
    expect(added).toHaveAttribute('data-change', 'added');
    expect(within(added).getByText('Added')).toBeInTheDocument();
    expect(within(added).getByLabelText('not set')).toBeInTheDocument();
    expect(within(added).getByText('true')).toBeInTheDocument();

    const removed = rowOf('suci');
    expect(removed).toHaveAttribute('data-change', 'removed');
    expect(within(removed).getByText('Removed')).toBeInTheDocument();
    expect(within(removed).getByText('suci-0-1')).toBeInTheDocument();

    // Unchanged fields are folded away until asked for.
    expect(screen.queryByRole('rowheader', { name: 'username' })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Show 1 unchanged field' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide 1 unchanged field' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const unchanged = screen.getByRole('table', { name: 'Unchanged fields' });
    expect(within(unchanged).getByRole('rowheader', { name: 'username' })).toBeInTheDocument();
    expect(rowOf('username')).toHaveAttribute('data-change', 'unchanged');
  });

  it('shows a created object as all added, and says when nothing changed or nothing was recorded', () => {
    const { unmount } = renderWithProviders(<EventDiff before={null} after={{ name: 'Sales' }} />);
    expect(rowOf('name')).toHaveAttribute('data-change', 'added');
    expect(screen.queryByRole('button', { name: /unchanged/ })).not.toBeInTheDocument();
    unmount();

    const second = renderWithProviders(
      <EventDiff before={{ a: { x: 1, y: 2 } }} after={{ a: { y: 2, x: 1 } }} />,
    );
    expect(screen.getByText('No field changed.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show 1 unchanged field' })).toBeInTheDocument();
    second.unmount();

    renderWithProviders(<EventDiff before={null} after={null} />);
    expect(screen.getByText('No values were recorded for this event.')).toBeInTheDocument();
  });
});
