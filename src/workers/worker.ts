// What a graceful stop needs from every background loop (hook deliveries today; build claims, the
// built-in runner later): stop taking work, give claims back, wait for what is in flight.
export interface Worker {
  readonly name: string;
  stop(): Promise<void>;
}
