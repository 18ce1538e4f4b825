// The people feature's public surface (issue 32): its routes, the nav's switch, the details tab's
// faces and the preview's face layer, the filter builder's section and chip names, the ADMIN setting.
export { peopleKeys, useFaceSettings } from "./api";
export { FaceLayer } from "./components/face-layer";
export { FaceRecognitionSetting } from "./components/face-recognition-setting";
export { FacesSection } from "./components/faces-section";
export { PeopleFilterSection, usePeopleNames } from "./components/people-filter-section";
export { peopleRoutes } from "./routes";
