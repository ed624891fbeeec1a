import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * One app's Prometheus registry (gateway and cores may share a process, so each keeps its own)
 * with the request count and latency every app has; apps add their own metrics to `registry`.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method' | 'status'>;

  constructor(labels: Record<string, string>, processMetrics = false) {
    this.registry.setDefaultLabels(labels);
    if (processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
    this.requests = new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }
}
