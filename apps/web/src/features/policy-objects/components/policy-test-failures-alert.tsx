import type { PolicyTestFailure } from '@palisade/contracts';
import { useState } from 'react';
// Object writes are refused like policy writes, so the object screens show the same alert (shared from
// components/policy) rather than a copy of it.
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { policyTestFailures } from '../../../lib/policy-errors';

/** Props of {@link PolicyTestFailuresAlert}. */
export interface PolicyTestFailuresAlertProps {
  /** The tests the refused change would break; nothing renders when null. */
  failures: PolicyTestFailure[] | null;
  /** Shows a close button that calls this. */
  onClose?: () => void;
}

/**
 * Why a save was refused with 409 `policy_tests_failed`: each pinned test it would break (name, expected,
 * actual, deciding rule), or nothing while there is no refusal to show.
 */
export function PolicyTestFailuresAlert({ failures, onClose }: PolicyTestFailuresAlertProps) {
  return failures ? <TestFailuresAlert failures={failures} onClose={onClose} /> : null;
}

/**
 * State for {@link PolicyTestFailuresAlert}: `capture(error, subject)` keeps the failures of a refused write
 * (and what was being changed, so a list can show the alert at that row) and says whether it was one;
 * `clear()` hides the alert.
 */
export function useTestFailures() {
  const [state, setState] = useState<{ failures: PolicyTestFailure[]; subject?: string } | null>(null);
  return {
    failures: state?.failures ?? null,
    /** The `subject` given with the last captured refusal. */
    subject: state?.subject,
    capture: (error: unknown, subject?: string): boolean => {
      const found = policyTestFailures(error);
      if (found) setState({ failures: found, subject });
      return found !== null;
    },
    clear: () => setState(null),
  };
}
