import type { Permission } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { PermissionMatrix } from './permission-matrix';

/** An editable matrix holding its own value, reporting every change. */
function Editable({
  initial = [],
  onChange,
  ...props
}: {
  initial?: Permission[];
  onChange: (next: Permission[]) => void;
  grantable?: Permission[];
  isViewOnly?: boolean;
}) {
  const [value, setValue] = useState<Permission[]>(initial);
  return (
    <PermissionMatrix
      caption="Permissions of the token"
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
      {...props}
    />
  );
}

describe('permission matrix', () => {
  it('shows a read-only matrix as named marks, one per module and action', () => {
    renderWithProviders(<PermissionMatrix caption="Permissions of Auditor" value={['users:view']} />);
    const table = screen.getByRole('table', { name: 'Permissions of Auditor' });
    expect(table).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Users: view: allowed' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Users: add: not allowed' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('offers only what may be granted, and its "all" toggles grant nothing else', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(
      <Editable onChange={onChange} grantable={['users:view', 'users:create', 'groups:view']} />,
    );
    // Modules with nothing grantable are left out; cells beyond it are disabled.
    expect(screen.queryByRole('checkbox', { name: 'Billing: view' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Users: delete' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Users: all actions' }));
    expect(onChange).toHaveBeenLastCalledWith(['users:view', 'users:create']);
    expect(screen.getByRole('checkbox', { name: 'Users: all actions' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'All permissions' }));
    expect(onChange).toHaveBeenLastCalledWith(['users:view', 'users:create', 'groups:view']);
  });

  it('lets a view-only choice tick the view column only', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(
      <Editable onChange={onChange} initial={['users:create']} isViewOnly />,
    );
    // What was ticked before shows unticked while only viewing is allowed.
    expect(screen.getByRole('checkbox', { name: 'Users: add' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Users: add' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'All modules: view' }));
    expect(onChange).toHaveBeenLastCalledWith(expect.arrayContaining(['users:view', 'roles:view']));
    expect(onChange.mock.lastCall?.[0].filter((p: string) => !p.endsWith(':view'))).toEqual(['users:create']);
  });
});
