// A button that copies a value (the MCP URL, the token, a snippet) and says so: its icon
// turns into a tick for a moment and a toast confirms, or explains how to copy by hand.
import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonProps } from '../../components/Button';
import { useUiStore } from '../../stores/uiStore';
import { copyText } from './clipboard';

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The text, or a function giving it at click time (e.g. an unmasked snippet). */
  text: string | (() => string);
  /** What is copied, for the accessible name and the toast: "the MCP URL". */
  what: string;
  label?: string;
}

export function CopyButton({
  text,
  what,
  label = 'Copy',
  size = 'sm',
  variant = 'secondary',
  ...rest
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onClick = async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text);
    const toast = useUiStore.getState().toast;
    if (!ok) {
      toast({
        message: `Could not copy ${what}: this browser refused. Select it and copy it yourself.`,
        tone: 'error',
      });
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2_000);
    toast({ message: `Copied ${what}.`, tone: 'success', durationMs: 2_500 });
  };

  return (
    <Button
      {...rest}
      size={size}
      variant={variant}
      icon={copied ? 'check' : 'copy'}
      aria-label={`${copied ? 'Copied' : label} ${what}`}
      onClick={() => void onClick()}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
