import { Alert, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef } from "react";

type Phase = { isIdle: boolean; isPending: boolean; isSuccess: boolean; isError: boolean };

/** Fires a single-use token action exactly once (StrictMode runs effects twice in development). */
export function useOnce(run: () => void) {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
  }, [run]);
}

/**
 * The pending / success / error frame of pages that act on an e-mailed token (verify e-mail,
 * confirm e-mail change): each page brings its own texts and follow-up actions.
 */
export function TokenStatus(props: {
  phase: Phase;
  pendingText: string;
  successTitle: string;
  success: () => ReactNode;
  successActions: () => ReactNode;
  errorTitle: string;
  error: string;
  errorActions: ReactNode;
}) {
  const { phase } = props;
  return (
    <>
      {(phase.isPending || phase.isIdle) && (
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" />
          <Text size="sm">{props.pendingText}</Text>
        </Group>
      )}
      {phase.isSuccess && (
        <Stack gap="md">
          <Alert
            color="green"
            variant="light"
            icon={<IconCircleCheck size={18} />}
            role="status"
            title={props.successTitle}
          >
            {props.success()}
          </Alert>
          {props.successActions()}
        </Stack>
      )}
      {phase.isError && (
        <Stack gap="md">
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" title={props.errorTitle}>
            {props.error}
          </Alert>
          {props.errorActions}
        </Stack>
      )}
    </>
  );
}
