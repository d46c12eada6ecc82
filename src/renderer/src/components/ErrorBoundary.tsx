// Keeps one broken view from blanking the whole observatory: the error is shown in its
// place with a retry, and the navigation around it keeps working.
import { Component, type ReactNode } from 'react';
import { ErrorState } from './ErrorState';

interface Props {
  children: ReactNode;
  /** Changing it (e.g. the route) clears a caught error. */
  resetKey?: string;
}

interface State {
  error: Error | null;
  resetKey: string | undefined;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { resetKey: props.resetKey, error: null } : null;
  }

  override componentDidCatch(error: Error): void {
    console.error('loci: a view failed to render', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <ErrorState
        title="This view failed"
        error={{
          code: 'internal',
          message: 'Something in the observatory broke while drawing this view.',
        }}
        onRetry={() => this.setState({ error: null })}
      />
    );
  }
}
