bench:
	@echo "no bench yet"
mca:
	@echo "no mca yet"
