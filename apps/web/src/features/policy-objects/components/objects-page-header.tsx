import { createContext, type ReactNode, useContext } from 'react';
import { PageHeader } from '../../../components/ui/page-header';

/**
 * What the app adds to every object screen's header after the screen's own actions: "Test a request", the policy
 * simulator of the policies feature. Provided by app/screens/policy-object-screen.tsx, since features never
 * import each other.
 */
export const ObjectScreenTools = createContext<ReactNode>(null);

/** Props of {@link ObjectsPageHeader}. */
export interface ObjectsPageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** The screen's own buttons (add, upload…), shown before "Test a request". */
  actions?: ReactNode;
}

/**
 * The header of every policy-object screen: the title, a line on what the objects do, the screen's actions and
 * the app's tools ({@link ObjectScreenTools}: "Test a request", so the effect of a change can be checked at once).
 */
export function ObjectsPageHeader({ title, description, actions }: ObjectsPageHeaderProps) {
  const tools = useContext(ObjectScreenTools);
  return (
    <PageHeader
      title={title}
      description={description}
      actions={
        <>
          {actions}
          {tools}
        </>
      }
    />
  );
}
