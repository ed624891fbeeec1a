import { Code, Image, Loader, Modal, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { fileUrl, readText } from '../../api/files';

const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp)$/i;
const TEXT =
  /\.(txt|log|md|csv|tsv|json|ya?ml|xml|html?|py|r|sh|js|ts|c|h|cpp|fa|fasta|fq|fastq|sam|vcf|bed|gff|cwl|toml|ini|cfg)$/i;
const TEXT_LIMIT = 256 * 1024;

export const canView = (name: string): boolean => IMAGE.test(name) || TEXT.test(name);

/**
 * A file shown in place: images from the gateway's file access (the session cookie carries the
 * token), text read in the page (at most its first 256 KiB).
 */
export function FileViewer(props: {
  token: string;
  collection: string;
  path: string;
  onClose: () => void;
}) {
  const image = IMAGE.test(props.path);
  const text = useQuery({
    queryKey: ['file-text', props.collection, props.path],
    enabled: !image,
    queryFn: () => readText(props.token, props.collection, props.path, TEXT_LIMIT),
  });
  return (
    <Modal opened onClose={props.onClose} title={props.path} size="xl">
      {image ? (
        <Image src={fileUrl(props.collection, props.path)} alt={props.path} fit="contain" />
      ) : text.data !== undefined ? (
        <Code
          block
          tabIndex={0}
          style={{ maxHeight: '70vh', overflow: 'auto' }}
          data-testid="file-text"
        >
          {text.data}
        </Code>
      ) : text.error ? (
        <Text c="red">{(text.error as Error).message}</Text>
      ) : (
        <Loader aria-label="Loading" />
      )}
    </Modal>
  );
}
