/** The part of autocannon's programmatic API the HTTP scenarios use (the package ships no types). */
declare module 'autocannon' {
  /** Options of one load run. */
  interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
  }
  /** A histogram summary. */
  interface Histogram {
    average: number;
    p50: number;
    total: number;
  }
  /** The results of one load run. */
  interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
