import { imageLinkOf } from './image-names';

/** containers.md §6 step 2: which link an image name resolves through. */
describe('imageLinkOf', () => {
  const hex = (c: string, n: number) => c.repeat(n);

  it('a PDH names no link', () => {
    expect(imageLinkOf(`${hex('a', 32)}+1024`)).toBeNull();
  });

  it('sha256 ids, whole or a 12-hex prefix, resolve through docker_image_hash', () => {
    expect(imageLinkOf(`sha256:${hex('b', 64)}`)).toEqual({
      linkClass: 'docker_image_hash',
      name: `sha256:${hex('b', 64)}`,
      prefix: false,
    });
    expect(imageLinkOf(`sha256:${hex('c', 12)}`)).toMatchObject({ prefix: true });
  });

  it('repo:tag as it is, repo alone as repo:latest; a registry port is not a tag', () => {
    const tag = (image: string) => imageLinkOf(image)?.name;
    expect(tag('ubuntu:22.04')).toBe('ubuntu:22.04');
    expect(tag('arvados/jobs')).toBe('arvados/jobs:latest');
    expect(tag('registry.example:5000/lab/tool')).toBe('registry.example:5000/lab/tool:latest');
    expect(tag('registry.example:5000/lab/tool:3')).toBe('registry.example:5000/lab/tool:3');
    expect(imageLinkOf('ubuntu')?.linkClass).toBe('docker_image_repo+tag');
  });
});
