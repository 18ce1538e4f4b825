/** The time deliveries are scheduled by (`rt.clock`: tests move it to see retries and the day's end). */
export interface Clock {
  now(): Date;
}
