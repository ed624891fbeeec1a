export { startDeployment, type RunningDeployment } from './deployment';
