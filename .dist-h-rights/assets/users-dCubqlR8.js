function e(e){return`${(e.first_name??``).trim().charAt(0)}${(e.last_name??``).trim().charAt(0)}`.toUpperCase()||`?`}export{e as t};
//# sourceMappingURL=users-dCubqlR8.js.map