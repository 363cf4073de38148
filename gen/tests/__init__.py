"""Generator unit tests: PYTHONPATH=gen /usr/bin/python3 -m unittest discover -s gen/tests -t gen"""
