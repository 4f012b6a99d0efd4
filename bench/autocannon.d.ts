/** The part of autocannon's API the scenarios use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: never, context: never) => unknown;
      onResponse?: (status: number, body: string, context: never) => void;
    };
    type Client = { setHeaders(headers: Record<string, string>): void };
    type Options = {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
      setupClient?: (client: Client) => void;
    };
    type Histogram = { average: number; p50: number; p99: number; max: number; total: number };
    type Result = {
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
