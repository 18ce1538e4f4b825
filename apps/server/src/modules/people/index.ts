export { PEOPLE } from "./policy.ts";
export { createPeopleService, type FaceFinder, type PeopleService, type PicturesOf } from "./service.ts";
