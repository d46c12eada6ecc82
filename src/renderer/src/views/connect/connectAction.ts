// The empty states' way forward: "Connect an editor" takes the person to the Connect view
// (nothing, where that view is not part of the app).
import type { EmptyStateProps } from '../../components/EmptyState';
import { navigate } from '../../lib/router';
import { findView } from '../index';

export function connectEditorAction(): Pick<EmptyStateProps, 'action'> {
  const connect = findView('connect');
  return connect
    ? {
        action: {
          label: 'Connect an editor',
          icon: 'connect',
          onClick: () => navigate(connect.path),
        },
      }
    : {};
}
