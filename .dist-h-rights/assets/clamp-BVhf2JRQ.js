function e(e,t,n){return t===void 0&&n===void 0?e:t!==void 0&&n===void 0?Math.max(e,t):Math.min(t===void 0&&n!==void 0?e:Math.max(e,t),n)}export{e as t};
//# sourceMappingURL=clamp-BVhf2JRQ.js.map