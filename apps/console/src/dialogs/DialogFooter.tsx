import { Alert, Button, Group } from '@mantine/core';

/**
 * The end of every dialog: the server's refusal, if any, then Cancel and the action. The
 * action submits the dialog's form unless `onSubmit` is given.
 */
export function DialogFooter(props: {
  error: string | null;
  onCancel: () => void;
  submitLabel: string;
  onSubmit?: () => void;
  busy?: boolean;
  disabled?: boolean;
  color?: string;
}) {
  return (
    <>
      {props.error && (
        <Alert color="red" role="alert">
          {props.error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button
          type={props.onSubmit ? 'button' : 'submit'}
          onClick={props.onSubmit}
          loading={props.busy}
          disabled={props.disabled}
          color={props.color}
        >
          {props.submitLabel}
        </Button>
      </Group>
    </>
  );
}
