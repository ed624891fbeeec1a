export { startDeployment, type RunningDeployment } from './deployment';
export { loadDeploymentConfig } from './load-config';
