import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n } from '../testing/render';
import { ApiError, RateLimitError } from './api-client';
import { showMutationError, showSuccess } from './mutation-toast';

const t = initTestI18n().t;

function shown() {
  return vi.mocked(notifications.show).mock.calls.map(([toast]) => ({
    title: toast.title,
    message: toast.message,
    color: toast.color,
    id: toast.id,
  }));
}

beforeEach(() => {
  vi.spyOn(notifications, 'show').mockReturnValue('id');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('mutation toasts', () => {
  it('tells a failed write by its errcode under a title, with the id the API client uses', () => {
    showMutationError(t, new ApiError(403, { errcode: 3, code: 'forbidden', message: 'No.' }));
    expect(shown()).toEqual([
      {
        title: 'That did not work',
        message: 'Your role does not allow this.',
        color: 'red',
        id: 'error:error.3',
      },
    ]);
  });

  it("prefers the server's reason when it is a known one, and the caller's title", () => {
    const inUse = new ApiError(409, {
      errcode: 5,
      code: 'conflict',
      message: 'In use.',
      details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
    });
    showMutationError(t, inUse, { title: 'The group was not copied' });
    expect(shown()[0]).toMatchObject({
      title: 'The group was not copied',
      message: t('validation.groupNameTaken'),
    });
    // An unknown detail key falls back to the errcode's text.
    const odd = new ApiError(409, {
      errcode: 5,
      code: 'conflict',
      message: 'In use.',
      details: [{ path: 'body.name', message: 'validation.noSuchKey' }],
    });
    showMutationError(t, odd);
    expect(shown()[1].message).toBe(t('error.5'));
  });

  it("uses the caller's own sentence for the failures it explains", () => {
    const explain = (error: ApiError) => (error.status === 403 ? 'Only an owner can do that.' : undefined);
    showMutationError(t, new ApiError(403, { errcode: 3, code: 'forbidden', message: 'No.' }), { explain });
    showMutationError(t, new ApiError(404, { errcode: 4, code: 'not_found', message: 'Gone.' }), { explain });
    expect(shown().map((toast) => toast.message)).toEqual(['Only an owner can do that.', t('error.4')]);
  });

  it('stays quiet on a rate-limited call, which the API client toasted already', () => {
    showMutationError(t, new RateLimitError('POST /x'));
    expect(shown()).toEqual([]);
  });

  it('shows a finished write in green', () => {
    showSuccess('2 users deleted.');
    expect(shown()).toEqual([
      { title: undefined, message: '2 users deleted.', color: 'green', id: undefined },
    ]);
  });
});
