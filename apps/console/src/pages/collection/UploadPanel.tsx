import '@mantine/dropzone/styles.css';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFolderUp, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { itemsOfFiles, useUploader } from '../../api/upload';
import { formatBytes } from '../../ui/bits';

/**
 * Drop files or whole folders here (or pick them) to upload them into the folder shown, with a
 * progress bar; after a failure, "Resume upload" sends what is left.
 */
export function UploadPanel(props: {
  token: string;
  collection: string;
  dir: string;
  onChange: () => void;
}) {
  const { state, start, resume } = useUploader(props.token, props.collection, props.onChange);
  const folderInput = useRef<HTMLInputElement>(null);
  const percent = state.total === 0 ? 0 : Math.round((100 * state.sent) / state.total);
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => start(itemsOfFiles(files), props.dir)}
        multiple
        aria-label="Upload: drop files or folders here, or choose files"
        data-testid="dropzone"
      >
        <Group justify="center" gap="sm" mih={70} style={{ pointerEvents: 'none' }}>
          <IconUpload size={28} aria-hidden />
          <Text>
            Drop files or folders here to upload them to{' '}
            <strong>{props.dir ? `/${props.dir}` : 'the top folder'}</strong>, or click to choose
            files.
          </Text>
        </Group>
      </Dropzone>
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFolderUp size={14} aria-hidden />}
          onClick={() => folderInput.current?.click()}
        >
          Upload a folder…
        </Button>
        <input
          ref={folderInput}
          type="file"
          hidden
          multiple
          aria-label="Choose a folder to upload"
          data-testid="folder-input"
          {...{ webkitdirectory: '' }}
          onChange={(e) => {
            if (e.currentTarget.files) start(itemsOfFiles(e.currentTarget.files), props.dir);
            e.currentTarget.value = '';
          }}
        />
      </Group>
      {state.files > 0 && (
        <Stack gap={4} role="status" aria-live="polite">
          <Progress
            value={percent}
            aria-label="Upload progress"
            color={state.error ? 'red' : 'blue'}
            animated={state.running}
          />
          <Text size="sm">
            {state.running
              ? `Uploading: ${state.done} of ${state.files} files, ${formatBytes(state.sent)} of ${formatBytes(state.total)}`
              : state.error
                ? `Stopped after ${state.done} of ${state.files} files`
                : `Uploaded ${state.done} files (${formatBytes(state.total)})`}
          </Text>
        </Stack>
      )}
      {state.error && !state.running && (
        <Alert color="red" title="Upload failed" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{state.error}</Text>
            <Button size="xs" onClick={() => void resume()}>
              Resume upload
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
