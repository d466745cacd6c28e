int cbaselines_placeholder(void);
