import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConfig, parseConfigText } from './load';

const root = join(__dirname, '..', '..', '..');

describe.each(['config/svc.sample.yml', 'docker/demo.yml'])('%s', (file) => {
  it('is a valid configuration', () => {
    const config = buildConfig(parseConfigText(readFileSync(join(root, file), 'utf8'), file), {});
    expect(Object.keys(config.Clusters)).toEqual(['home1', 'rmt02']);
    expect(config.Gateway.HomeCluster).toBe('home1');
  });
});
